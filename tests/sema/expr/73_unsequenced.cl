// clang's -Wunsequenced: a variable modified twice, or modified and read,
// with no sequence point between (C's rules: an assignment's store is a side
// effect; ',', '&&', '||', '?:' and calls are sequence points).
int f(int a, int b);
kernel void k(global int *o, int i, int j) {
    int a[4] = {0};
    i = i++;
    i = ++i + 1;
    o[i] = i++;
    a[i++] = i;
    i = i + 1;
    i += i++;
    j = i++ + i++;
    j = (i++, i);
    j = i++ && i;
    j = i ? i++ : i--;
    j = f(i++, i);
    j = f(i, 0) + i++;
    j = (i = 1) + (i = 2);
    int x = i++ + i;
    if (i++ == i) o[0] = 1;
    return;
}
int g(int i) { return i++ + i; }
kernel void h(global int *o, int i) {
    for (int k = 0; k < 4; k = k++) o[k] = 0;
    o[0] = i + (i = 3);
    i++, i++;
    o[1] = (i++) * (i++);
    o[2] = i += 1;
    int *p = &i;
    *p = (*p)++;
}

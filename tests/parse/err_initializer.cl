void f(global int *out) {
    int2 u = { .x = };
    int w[3] = { 1, [1] = , 3 };
    for (int i = 0; i < 4; i++)
        out[i] = i;
    int a = 2 * ;
    out[0] = a + w[0] + u.x;
}

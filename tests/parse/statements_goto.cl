void f() {
start:
    x++;
    if (x < 10) goto start;
done: ;
    return;
}

struct P { int x, y; };
void f() {
    struct P p = (struct P){ 1, 2 };
    struct P q = (struct P){ .y = 3, .x = 4 };
    int *a = (int[]){ 1, 2, 3, };
    int m[2][2] = { [0] = { 1, 2 }, [1][1] = 5 };
    struct P z = {};
}

typedef int T;
void f() {
    float T = 1;
    T += 2;
}
T x;
void g(float T) { T = 3; }
T y;
void h() {
    T * a;
    { typedef float U; U u; }
    int U = 2;
    U * 3;
}
struct S { T T; };
typedef struct S S;
S s;
void k() { for (int T = 0; T < 3; T++) {} T after; }

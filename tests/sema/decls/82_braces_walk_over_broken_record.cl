// RUN: -Wall — an array of unknown size of a record whose members could not be declared: the
// -Wmissing-braces walk ended never (a hang found by the fuzzer); now the errors alone.
struct P { in1 x, y; };
void f() {
    struct P p = (struct P[]){ 1, 2, 3, };
}

void f(global int *out, int n) {
    int k = 0;
    while (k < n) {
        do
            k += 4;
        } while (k % 8);
    }
    out[0] = k;
}

struct S { int a; float x, y y; int z; };

void g(global int *out) {
    int total = out[0] + ((int[]) 1, 2 }[1];
    out[1] = total;
}
void h(global int *out) { out[2] = 3; }

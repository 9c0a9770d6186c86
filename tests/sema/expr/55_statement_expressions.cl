// GNU statement expressions: accepted as clang accepts them; the value is
// the last expression statement's (converted to a value), else void.
int at_file_scope = ({ 1; });

void f(void);

kernel void k(global int *out, int n) {
    int x = ({ int t = n; t * 2; });
    int *p = ({ 1.5f; });
    int v = ({ f(); });
    int w = ({ int t = 1; });
    ({ x; }) = 3;
    const int c = 1;
    int arr[2] = {0, 1};
    global int *q = ({ arr; });
    goto inside;
    ({ inside: x++; });
    switch (n) {
    case 0:
        ({ case 1: x++; });
        break;
    }
    ({ goto out_of_it; });
out_of_it:
    for (int i = 0; i < n; i++) {
        x += ({ if (i == 2) continue; if (i == 5) break; i; });
    }
    out[0] = x + ({ unknown_name; }) + c;
}

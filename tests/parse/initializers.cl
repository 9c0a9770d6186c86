int a[] = { 1, 2, 3 };
int b[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
struct S { int x; float y[2]; } s = { .x = 1, .y = { 2.0f, 3.0f } };
float4 v = (float4)(1, 2, 3, 4);
int c = 1, d = c + 1, *e = &d;
int ranges[8] = { [0 ... 3] = 1, [4 ... N - 1] = 2, [1].x[2 ... 3] = 5 };

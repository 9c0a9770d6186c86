void f(global int *out) {
    int2 u = { .x = };
    int w[3] = { 1, [1] = , 3 };
    for (int i = 0; i < 4; i++)
        out[i] = i;
    int a = 2 * ;
    out[0] = a + w[0] + u.x;
}

// An error inside an item resumes at the next thing that can start one:
// the statements after the declaration are still the function's (one
// error each, as clang).
kernel void k(global int *io) {
    int arr[8] = { [0 3] = 1, 2 };
    int two[2] = { 1 2, 3 };
    io[0] = arr[1] + two[0];
}

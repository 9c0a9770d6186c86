// clang's -Wempty-body: an if without else or a switch whose body is a ';' on
// the line of its ')'; a loop's only when the next statement is a block or
// indented deeper; not when a macro expanding to nothing stands before the ';'.
#define NOTHING
#define EMPTY_IF(c) if (c);
kernel void k(global int *o, int n) {
    if (n);
    if (n) NOTHING;
    if (n)
        ;
    if (n); else o[0] = 1;
    if (n) {} else;
    switch (n);
    EMPTY_IF(n)
    for (int i = 0; i < n; i++);
    o[1] = 2;
    for (int i = 0; i < n; i++);
        o[2] = 3;
    while (n--);
    {
        o[3] = 4;
    }
    while (n--);
    while (n--) ;   o[4] = 5;
    for (;;);
}

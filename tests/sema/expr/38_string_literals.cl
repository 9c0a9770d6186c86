// String literals are __constant char arrays.
constant char greeting[] = "hello";

kernel void k(global char *o)
{
    constant char *s = "abc";
    o[0] = s[1] + "xyz"[2] + greeting[0];
    _Static_assert(sizeof("abc") == 4, "with the terminating NUL");
    char *t = "abc";
    "abc"[0] = 'x';
}

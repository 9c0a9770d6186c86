// __func__, __FUNCTION__ and __PRETTY_FUNCTION__ are `const __constant
// char` arrays (C99 6.4.2.2, clang): their pointers point into __constant,
// their elements are read-only; outside a function they warn.
int *outside = __func__;
kernel void k(global int *o) {
    int *p = __func__;
    constant char *ok = __func__;
    __func__[0] = 'x';
    o[0] = sizeof(__FUNCTION__) + sizeof(__PRETTY_FUNCTION__);
    constant char *q = __PRETTY_FUNCTION__;
    __func__ = 0;
}

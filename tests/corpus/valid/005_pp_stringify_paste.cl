// Exercises: # stringification, ## token pasting, paste building identifiers and literals, xstr indirection.
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define VERSION 20
#define MAKE_GETTER(name, type) type CAT(get_, name)(__global type *p) { return p[0]; }
#define HEXLIT(d) 0x##d

MAKE_GETTER(int_value, int)
MAKE_GETTER(float_value, float)

__kernel void pp_paste(__global int *ip, __global float *fp, __global int *out)
{
    int XCAT(var, VERSION) = get_int_value(ip);
    float f = get_float_value(fp);
    out[0] = var20 + (int)f + HEXLIT(ff);
    printf("%s %s\n", STR(hello world), XSTR(VERSION));
    printf("%s\n", STR(a + "b" \n 'c'));
}

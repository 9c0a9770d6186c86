// Exercises: block and line comments, comments inside macros, backslash-newline line splices, digraph-free punctuation.
/* A block comment
   spanning lines with * stars ** and // slashes */
#define LONG_MACRO(a, b) \
    ((a) * 10 + \
     (b))
// a line comment with a continuation \
   that continues here
__kernel void comments(__global int *out /* inline comment */)
{
    int x = LONG_MACRO(1, /* comment in argument */ 2);
    int y = 4 /* divides */ / 2;
    int z = x /**/ + /**/ y;
    out[0] = z; // trailing
    out[1] = x\
+ 1;
}

// Exercises: char literals with simple, octal and hex escapes; string literals in printf with escapes and concatenation.
__kernel void chars_strings(__global char *out)
{
    char c0 = 'a';
    char c1 = '\n';
    char c2 = '\t';
    char c3 = '\\';
    char c4 = '\'';
    char c5 = '\"';
    char c6 = '\0';
    char c7 = '\x41';
    char c8 = '\101';
    char c9 = '\7';
    char c10 = '?';
    char c11 = '\a';
    char c12 = '\?';
    uchar c13 = '\xff';
    out[0] = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + c10 + c11 + c12 + c13;
    printf("tab\there \"quoted\" back\\slash %c\n", c0);
    printf("concatenated " "string " "literal %d\n", 3);
    printf("octal \101 hex \x42 percent %%\n");
}

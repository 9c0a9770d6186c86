// Error tokens become diagnostics in active code only.
int a = @;
char *s = "unterminated;
char c = 'x;
#if 0
@ "in skipped code
#endif
#define BAD @
BAD
`
/* unterminated comment

// #error, #warning, #line, the null directive, unknown directives.
#
#error this is an error; with 'quotes
#warning careful "here"
#foo bar
# /* comment */ define SPACED 1
SPACED
__LINE__ __FILE__
#line 100
__LINE__ __FILE__
#line 200 "renamed.cl"
__LINE__ __FILE__
#define LINE_AT __LINE__
LINE_AT
#line abc
#line 5 6
a # b ## c

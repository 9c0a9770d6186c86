// c99_ex6_redefinition: from C99 6.10.3.5.
#define OBJ_LIKE (1-1)
#define OBJ_LIKE /* white space */ (1-1) /* other */
#define FUNC_LIKE(a) ( a )
#define FUNC_LIKE( a )( /* note the white space */ \
 a /* other stuff on this line
 */ )
#define OBJ_LIKE (0) // different token sequence
#define FUNC_LIKE(b) ( b ) // different parameter spelling

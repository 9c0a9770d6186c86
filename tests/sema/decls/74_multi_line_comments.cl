// RUN: -Wall — clang's -Wcomment (in -Wall, off by default): a // comment continued onto the
// next line by a backslash, once per continued line; not in a block comment.
// continued \
   here
/* block // \
 */
int b; // twice \
 one \
 two
kernel void k(global int *o) { o[0] = b; }

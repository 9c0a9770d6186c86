#include "../plain.h"
int nested = __LINE__; const char *f = __FILE__;

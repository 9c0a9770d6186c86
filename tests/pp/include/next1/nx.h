// Found first: goes on to the next directory's nx.h.
#include_next <nx.h>
#define IN1 1

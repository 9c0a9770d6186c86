unsigned long a;
long unsigned b;
unsigned long int c;
unsigned short d;
unsigned char e;
long double f;
const unsigned volatile int g;
unsigned h;

#define IN2 2

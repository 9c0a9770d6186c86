enum Color { RED, GREEN = 5, BLUE, };
enum { A = 1 << 2, B = A | 1 };
enum Color c = RED;
typedef enum Mode { M0, M1 } Mode;
Mode m = M1;

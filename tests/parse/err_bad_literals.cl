int a = 12abc;
float b = 1.0q;
int c = 09;

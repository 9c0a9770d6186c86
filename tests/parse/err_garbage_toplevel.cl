int ok1;
123 456;
int ok2;
) ] }
void ok3() {}

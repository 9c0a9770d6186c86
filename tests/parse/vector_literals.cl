void f(float2 ab) {
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 w = (float4)(ab, ab.yx);
    float4 splat = (float4)(0.5f);
    int4 i = (int4)(1, (int2)(2, 3), 4);
    float s = (float)(ab.x);
    int comma = (int)(1, 2);
    float8 e = (float8)(v, w);
}

// A vector literal takes the postfix operators after it; a scalar cast's
// operand is the postfix expression.
typedef float4 vec4;
void g(float4 v) {
    float w = (float4)(1.0f, 2.0f, 3.0f, 4.0f).w;
    float x = (vec4)(0.5f).x;
    float y = (float)(v).y;
}

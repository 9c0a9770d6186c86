// Usual arithmetic conversions, integer promotions, int/float mixing,
// compound assignment with its computation type, comparisons and `!`.
kernel void arith(global float *out, int i, uint u, char c, long l, float f, double d) {
    uint a = i + u;          // int -> uint
    long b = u * l;          // uint -> long
    int p = c + c;           // char promoted to int
    float m = i * f;         // int -> float
    double e = f + d;        // float -> double
    int t = f;               // float -> int
    i += 1.5f;               // computed in float, stored as int
    c <<= u;                 // shift: the count converted to the promoted type
    int lt = u < i;          // comparison in uint, result int
    int n = !f;              // `!` on a float, result int
    bool z = i;              // int -> bool
    out[0] = i ? f : i;      // arms converted to float
    out[1] = -c + ~u;
    out[2] = sizeof(long4) + vec_step(float3);
}

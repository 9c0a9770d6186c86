// Builtin calls with their resolved overload (and argument conversions),
// user calls converting arguments and returns, overloadable functions,
// program-scope constants with initializers, kernel attributes.
constant float scale = 2;
constant int table[3] = { 1, 2, 3 };

float twice(float x) { return x * scale; }
int __attribute__((overloadable)) pick(int x) { return x; }
float __attribute__((overloadable)) pick(float x) { return x; }

kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((vec_type_hint(float4)))
void calls(global float *out, global float4 *v) {
    size_t id = get_global_id(0);
    float c = clamp(out[id], 0.0f, 1.0f);
    float4 w = clamp(v[id], 0.0f, 1.0f);
    float4 p = pow(w, 2.0f);                 // scalar widened to the vector form
    out[id] = twice(table[id % 3]) + pick(1) + pick(c) + dot(w, p);
    barrier(CLK_LOCAL_MEM_FENCE);
    double m = max(1.0, 2.0);
    out[0] = m;
}

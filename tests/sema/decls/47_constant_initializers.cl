// Program-scope and __constant variables are initialized from compile-time
// constants: arithmetic constants and addresses of program-scope objects.
constant int table[3] = { 1, 2, 3 };
constant int *second = table + 1;            // ok: address constant
constant int *third = &table[2];             // ok
global int counter;
global int *counter_ptr = &counter;          // ok
constant float scale = 1.5f * 2 + M_PI_F;    // ok: arithmetic constant
constant sampler_t smp = CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;  // ok
constant float4 ones = (float4)(1.0f);       // ok
constant int words = sizeof(int) * 2;        // ok

global int base = 1;
global int derived = base + 1;               // error: reads a variable
constant int picked = table[1];              // ok: an element of a read-only object (clang folds it)
constant int after = picked + words;         // ok: read-only objects with constant initializers
global int twice = (counter, 2);             // error: comma operator
int f(void);
global int called = f();                     // error: a call

kernel void k(global int *out) {
    int n = out[0];
    constant int local_table[2] = { 1, n };  // error: not a constant
    out[1] = local_table[n] + derived + picked + twice + called + words + *second + *third + *counter_ptr + (int)scale;
}

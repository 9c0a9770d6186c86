// printf through tests/spirv_exec/run.py: natively (`clc run`) and as
// SPIR-V on another implementation, the output compared with the text
// run.py expects. Arguments come from a buffer, so nothing is folded.

kernel void p(global const float *f, global const int *n) {
    float x = f[0];
    int i = n[0];
    float4 v = (float4)(x, -x, x * 2.0f, 0.5f);
    printf("d=%d i=%i u=%u x=%x X=%X o=%o c=%c s=%s %%\n", i, -i, (uint)i, i, i, i, 'A' + 1, "str");
    printf("f=%f e=%e g=%g a=%a\n", x, x, x, x);
    printf("[%8.3f] [%-8.2e] [%+d] [% d] [%05d] [%.0f] [%#x] [%#o] [%10s] [%-5c]\n", x, x, i, i, i, x, i, i, "ab", 'z');
    printf("%v4hlf|%.2v4hlf|%v2hld|%v4hhd|%#v2hx|%v2ld|%8.1v3hlf\n", v, v, (int2)(i, -i), (char4)(1, -2, 3, -4), (short2)(-i, 7),
           (long2)(i, -i) * 1000000000L, v.xyz);
    printf("hh=%hhd hu=%hu h=%hd\n", (char)-i, (ushort)-i, (short)i);
}

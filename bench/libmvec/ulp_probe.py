#!/usr/bin/env python3
"""Measures the worst error (in ulp) of glibc's libmvec vector math
functions, against the x86 `long double` C functions, next to OpenCL C's
bounds: the data behind which functions clc's vectoriser may call
(compiler/src/codegen/vecmath.rs).

    python3 bench/libmvec/ulp_probe.py   # writes and runs /tmp/libmvec_probe (needs gcc)

2 million random inputs per function and precision (random bit patterns,
values in [-10, 10], and in [-10, 10] at 1e-4 steps), for the SSE, AVX2
and (where the machine has it) AVX-512 variants.
"""
import os, subprocess
funcs = [("sin",1,4),("cos",1,4),("tan",1,5),("asin",1,4),("acos",1,4),("atan",1,5),("atan2",2,6),("sinh",1,4),("cosh",1,4),("tanh",1,5),("asinh",1,4),("acosh",1,4),("atanh",1,5),("exp",1,3),("exp2",1,3),("exp10",1,3),("expm1",1,3),("log",1,3),("log2",1,3),("log10",1,3),("log1p",1,2),("pow",2,16),("cbrt",1,2),("erf",1,16),("erfc",1,16),("hypot",2,4)]
out = ['#define _GNU_SOURCE','#include <math.h>','#include <stdio.h>','#include <stdint.h>','#include <string.h>','#include <immintrin.h>','#include <stdlib.h>']
out.append('''
static uint64_t st=88172645463325252ull; static uint64_t rnd(){st^=st<<13;st^=st>>7;st^=st<<17;return st;}
static float rf(){ uint32_t b=(uint32_t)rnd(); float f; memcpy(&f,&b,4); return f; }
static double rd(){ uint64_t b=rnd(); double f; memcpy(&f,&b,8); return f; }
static double ulpf(float got, long double want){ if (isnan(want)) return isnan(got)?0:1e9; if (isinf(want)) return (got==(float)want)?0:1e9; float w=(float)want; if (isinf(w)) return (isinf(got)&& (got>0)==(w>0))?0:1e9; float a=fabsf(w); float n=nextafterf(a,INFINITY); double step=(double)n-(double)a; if ((long double)a > fabsl(want) && a!=0) { float p=nextafterf(a,0); step=(double)a-(double)p; } return fabsl((long double)got-want)/step; }
static double ulpd(double got, long double want){ if (isnan(want)) return isnan(got)?0:1e9; if (isinf(want)) return (got==(double)want)?0:1e9; double w=(double)want; if (isinf(w)) return (isinf(got)&&(got>0)==(w>0))?0:1e9; double a=fabs(w); double n=nextafter(a,INFINITY); long double step=(long double)n-(long double)a; if ((long double)a > fabsl(want) && a!=0) { double p=nextafter(a,0); step=(long double)a-(long double)p; } return (double)(fabsl((long double)got-want)/step); }
''')
for name,n,b in funcs:
    pf = ", ".join(f"__m256 a{i}" for i in range(n))
    out.append(f"__m256 _ZGVdN8{'v'*n}_{name}f({pf});")
    pd = ", ".join(f"__m256d a{i}" for i in range(n))
    out.append(f"__m256d _ZGVdN4{'v'*n}_{name}({pd});")
    pb = ", ".join(f"__m128 a{i}" for i in range(n))
    out.append(f"__m128 _ZGVbN4{'v'*n}_{name}f({pb});")
    pe = ", ".join(f"__m512 a{i}" for i in range(n))
    out.append(f"__m512 _ZGVeN16{'v'*n}_{name}f({pe});")
    ped = ", ".join(f"__m512d a{i}" for i in range(n))
    out.append(f"__m512d _ZGVeN8{'v'*n}_{name}({ped});")
out.append("__attribute__((target(\"avx2,fma,avx512f\"))) int main(){")
out.append("  int e512 = __builtin_cpu_supports(\"avx512f\");")
out.append("  const int N=2000000;")
for name,n,b in funcs:
    ref = f"{name}l(" + ", ".join(f"(long double)x{i}[k]" for i in range(n)) + ")"
    out.append("  { double worst=0, worstd=0, worstb=0, worste=0, worsted=0; float wx=0; double wxd=0; float x0[16],x1[16]; double y0[8],y1[8];")
    out.append("    for (int it=0; it<N/8; it++){ for(int k=0;k<16;k++){x0[k]=rf(); x1[k]=(it&1)?rf():(float)(rnd()%2000)/100.0f-10.0f; if(it&2) x0[k]=(float)((int32_t)rnd()%100000)/10000.0f;}")
    args = ", ".join(f"_mm256_loadu_ps(x{i})" for i in range(n))
    out.append(f"      float r[8]; _mm256_storeu_ps(r, _ZGVdN8{'v'*n}_{name}f({args}));")
    argsb = ", ".join(f"_mm_loadu_ps(x{i})" for i in range(n))
    out.append(f"      float rb[4]; _mm_storeu_ps(rb, _ZGVbN4{'v'*n}_{name}f({argsb}));")
    reff = f"{name}(" + ", ".join(f"(double)x{i}[k]" for i in range(n)) + ")"
    out.append(f"      for(int k=0;k<8;k++){{ long double w={ref}; double e=ulpf(r[k], w); if(e>worst){{worst=e;wx=x0[k];}} if(k<4){{double eb=ulpf(rb[k],w); if(eb>worstb)worstb=eb;}} }}")
    argse = ", ".join(f"_mm512_loadu_ps(x{i})" for i in range(n))
    out.append(f"      if (e512) {{ float re[16]; _mm512_storeu_ps(re, _ZGVeN16{'v'*n}_{name}f({argse})); for(int k=0;k<16;k++){{ double e=ulpf(re[k], {ref}); if(e>worste)worste=e; }} }}")
    out.append("      for(int k=0;k<8;k++){y0[k]=rd(); y1[k]=(it&1)?rd():(double)(rnd()%2000)/100.0-10.0; if(it&2) y0[k]=(double)((int32_t)rnd()%100000)/10000.0;}")
    argsd = ", ".join(f"_mm256_loadu_pd(y{i})" for i in range(n))
    refd = f"{name}l(" + ", ".join(f"(long double)y{i}[k]" for i in range(n)) + ")"
    out.append(f"      double rr[4]; _mm256_storeu_pd(rr, _ZGVdN4{'v'*n}_{name}({argsd}));")
    out.append(f"      for(int k=0;k<4;k++){{ double e=ulpd(rr[k], {refd}); if(e>worstd){{worstd=e;wxd=y0[k];}} }}")
    argsed = ", ".join(f"_mm512_loadu_pd(y{i})" for i in range(n))
    out.append(f"      if (e512) {{ double re[8]; _mm512_storeu_pd(re, _ZGVeN8{'v'*n}_{name}({argsed})); for(int k=0;k<8;k++){{ double e=ulpd(re[k], {refd}); if(e>worsted)worsted=e; }} }} }}")
    out.append(f'    printf("%-6s bound %2d  float avx2 %8.3f (x=%g) sse %8.3f avx512 %8.3f  double avx2 %8.3f (x=%g) avx512 %8.3f %s\\n", "{name}", {b}, worst, wx, worstb, worste, worstd, wxd, worsted, (worst>{b}||worstb>{b}||worstd>{b}||worste>{b}||worsted>{b})?"  EXCEEDS":""); }}')
out.append("}")
src = "/tmp/libmvec_probe.c"
open(src, "w").write("\n".join(out))
subprocess.run(["gcc", "-O1", "-o", "/tmp/libmvec_probe", src, "-lmvec", "-lm"], check=True)
subprocess.run(["/tmp/libmvec_probe"], check=True)

// double is available (cl_khr_fp64 is enabled by default for CL1.2+).
kernel void ok(global double *p)
{
    double d = p[0];
    double2 v = (double2)(d, 2.0);
    p[1] = v.x + v.y;
}

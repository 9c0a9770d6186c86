// Exercises: typedef names shadowed by local variables in inner scopes, typedef of typedef, function-pointer-free declarator ambiguity (T * x).
typedef int T;
typedef T U;
typedef float4 vec_t;
typedef int arr4_t[4];

int f(T x) { return x + 1; }

__kernel void shadow(__global int *out)
{
    T a = 1;
    U b = 2;
    arr4_t arr = { 1, 2, 3, 4 };
    {
        int T = 5;          /* T is now a variable */
        int c = T * a;      /* multiplication, not a declaration */
        out[0] = c + (T);
        {
            float vec_t = 2.0f;
            out[1] = (int)(vec_t * 2);
        }
        vec_t v = (vec_t)(1.0f);   /* outer typedef visible again */
        out[2] = (int)v.x;
    }
    T *p = &a;              /* T is a type again: declaration of pointer p */
    out[3] = *p + b + f(a) + arr[3] + sizeof(T) + sizeof(arr4_t);
    for (int U = 0; U < 2; U++)
        out[4] += U;
    U after = 3;
    out[5] = after;
}

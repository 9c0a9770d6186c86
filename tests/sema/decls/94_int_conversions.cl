// RUN: -Wconversion — -Wshorten-64-to-32, -Wimplicit-int-conversion, -Wsign-conversion judged on the values an expression can take, as clang-22's
enum big { LOW = 1, HIGH = 0xbb67ae85U };
struct s { uint len; long wide; };
int takes_int(int n);
kernel void k(global int *out, global uchar *in, global long *big, global uint *bits, int n, uint un, struct s st) {
    int gid = get_global_id(0);
    uchar a = in[0], b = in[1];
    uchar sum = a + b;
    ushort shifted = a << 4;
    uchar high_bits = n >> 24;
    uchar high_bits_unsigned = (uint)n >> 24;
    uchar masked = n & 0xff;
    uchar rem = un % 200;
    uchar quotient = un / 16777216;
    int from_long = big[0];
    short narrowed = n;
    uint to_unsigned = n;
    int from_unsigned = un;
    uint minus_one = -1;
    long negated = -un;
    ulong negated_wide = -un;
    char chosen = n ? 1 : 2;
    int x = 3;
    x += big[1];
    size_t z = n;
    uint compared = n < 3;
    uchar inverted = ~a;
    int count = sizeof(in) / sizeof(in[0]);
    uint mask = bits[0] & (1 << (un & 31));
    uint from_enum = HIGH;
    int member = st.len;
    int member_wide = st.wide;
    int2 v = (int2)(get_global_id(0), get_global_id(1));
    out[gid] = takes_int(un) + sum + shifted + high_bits + high_bits_unsigned + masked + rem + quotient + from_long + narrowed;
    out[1] = to_unsigned + from_unsigned + minus_one + negated + negated_wide + chosen + x + z + compared + inverted + count + mask + from_enum + member + member_wide + v.x;
}

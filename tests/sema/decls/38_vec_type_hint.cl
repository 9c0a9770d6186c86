// vec_type_hint takes a scalar or vector type.
kernel __attribute__((vec_type_hint(float4))) void ok1(void) {}
kernel __attribute__((vec_type_hint(int))) void ok2(void) {}
struct S { int a; };
kernel __attribute__((vec_type_hint(struct S))) void bad_struct(void) {}
kernel __attribute__((vec_type_hint(bool))) void bad_bool(void) {}

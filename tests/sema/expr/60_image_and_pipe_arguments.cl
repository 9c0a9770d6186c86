// Images and pipes convert only to themselves: an image of another
// dimension or access, a pipe of another packet type or access, is an
// incompatible argument (clang's checks).
void ro(read_only image2d_t i);
void rw(read_write image2d_t i);
void wp(write_only pipe int p);
void rpf(read_only pipe float p);
kernel void k(read_write image2d_t a, read_only image2d_t b, image2d_t c,
              read_only image3d_t d, read_only pipe int p, write_only pipe int q) {
    ro(a); rw(b); ro(c); rw(a); ro(d);
    wp(p); wp(q); rpf(p);
}

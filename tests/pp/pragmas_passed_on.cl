// Pragmas clc acts on in the preprocessor (push_macro, pop_macro, pack) and those -E passes on as
// written (every pragma but once, as clang -E does; a pack is printed as the value it leaves).
#define X 1
#pragma push_macro("X")
#undef X
#define X 2
int a = X;
#pragma pop_macro("X")
int b = X;
#pragma push_macro("Y")
#define Y 3
int c = Y;
#pragma pop_macro("Y")
int Y = 4;
#pragma pop_macro("Y")
#pragma push_macro(X)
#pragma pop_macro("X"
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused"
#pragma clang diagnostic pop
#pragma weird   thing (1, 2)
#define P _Pragma("message(\"from _Pragma\")")
P
#pragma pack(push, 2)
struct S { char c; int i; };
#pragma pack(pop)
#pragma once

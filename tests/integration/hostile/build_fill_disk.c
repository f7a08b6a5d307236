/* Build time: the assembler writes what .fill says, here 304 MiB into the object file and as
   much into the program. */
__asm__(".section .data.big,\"aw\",@progbits\n.fill 0x2600000, 8, 0\n.text\n");
int main(void) { return 0; }

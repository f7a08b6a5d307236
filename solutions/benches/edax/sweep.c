/*
 * Edax's flip in the loop shape of `benches/othello_moves.rs`, for that bench to time beside
 * the project's solver (`--edax LIB`). Not Edax's code: Edax (GPL-3.0) is not part of this
 * repository; `benches/edax/build.sh EDAX_CHECKOUT` compiles this file with Edax's
 * `src/flip_avx_acepck.c` included from a checkout beside it, into a shared library.
 *
 * Two sweeps over the same moves: Edax's flip inlined into the loop (as Edax's own search
 * calls it: one translation unit, `-fwhole-program`), and called through a function the
 * compiler may neither inline nor specialise (as a caller in another crate calls a function).
 * Each move goes through a `black_box` like Rust's (`std::hint::black_box` on `&Input`: the
 * pointer is handed to an empty asm statement that may read and write memory).
 */
#include <stddef.h>
#include <stdint.h>

#include "flip_avx_acepck.c"

/* The layout of the bench's `EdaxMove` (`#[repr(C)]`). */
struct edax_move {
	uint64_t player, opponent, square;
};

static inline const struct edax_move *black_box(const struct edax_move *m)
{
	__asm__ volatile("" : : "r"(&m) : "memory");
	return m;
}

__attribute__((noipa)) static uint64_t flip_called(int x, uint64_t P, uint64_t O)
{
	return flip(x, P, O);
}

__attribute__((visibility("default"))) uint64_t edax_sweep_inlined(const struct edax_move *moves, size_t n)
{
	uint64_t acc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct edax_move *m = black_box(moves + i);
		acc ^= flip((int) m->square, m->player, m->opponent);
	}
	return acc;
}

__attribute__((visibility("default"))) uint64_t edax_sweep_called(const struct edax_move *moves, size_t n)
{
	uint64_t acc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct edax_move *m = black_box(moves + i);
		acc ^= flip_called((int) m->square, m->player, m->opponent);
	}
	return acc;
}

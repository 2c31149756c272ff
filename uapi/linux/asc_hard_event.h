/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * asc_event: the HardEvent table, in pyasc's numbering (identical to Ascend C
 * "enum class HardEvent").  This is the only place it is written.
 *
 * Each HardEvent is a direction SRC_DST: "pipe SRC finished, tell pipe DST".
 * Entries are ASC_HARD_EVENT(NAME, value, SRC, DST), in value order starting
 * at 0; SRC is the pipe that sets the flag and DST the pipe that waits for
 * it, as the suffixes of the ASC_PIPE_* constants (V_V and FIX_FIX are
 * barriers within one pipe: SRC and DST are the same).
 * The file has no include guard on purpose: <linux/asc_event.h> includes it
 * to build enum asc_hard_event, and libasc and the driver include it again,
 * each with its own ASC_HARD_EVENT() defined, to build name tables and to
 * check at compile time that every value is where the table says.
 */
ASC_HARD_EVENT(MTE2_MTE1, 0, MTE2, MTE1)
ASC_HARD_EVENT(MTE1_MTE2, 1, MTE1, MTE2)
ASC_HARD_EVENT(MTE1_M, 2, MTE1, M)
ASC_HARD_EVENT(M_MTE1, 3, M, MTE1)
ASC_HARD_EVENT(MTE2_V, 4, MTE2, V)
ASC_HARD_EVENT(V_MTE2, 5, V, MTE2)
ASC_HARD_EVENT(MTE3_V, 6, MTE3, V)
ASC_HARD_EVENT(V_MTE3, 7, V, MTE3)
ASC_HARD_EVENT(M_V, 8, M, V)
ASC_HARD_EVENT(V_M, 9, V, M)
ASC_HARD_EVENT(V_V, 10, V, V)
ASC_HARD_EVENT(MTE3_MTE1, 11, MTE3, MTE1)
ASC_HARD_EVENT(MTE1_MTE3, 12, MTE1, MTE3)
ASC_HARD_EVENT(MTE1_V, 13, MTE1, V)
ASC_HARD_EVENT(MTE2_M, 14, MTE2, M)
ASC_HARD_EVENT(M_MTE2, 15, M, MTE2)
ASC_HARD_EVENT(V_MTE1, 16, V, MTE1)
ASC_HARD_EVENT(M_FIX, 17, M, FIX)
ASC_HARD_EVENT(FIX_M, 18, FIX, M)
ASC_HARD_EVENT(MTE3_MTE2, 19, MTE3, MTE2)
ASC_HARD_EVENT(MTE2_MTE3, 20, MTE2, MTE3)
ASC_HARD_EVENT(S_V, 21, S, V)
ASC_HARD_EVENT(V_S, 22, V, S)
ASC_HARD_EVENT(S_MTE2, 23, S, MTE2)
ASC_HARD_EVENT(MTE2_S, 24, MTE2, S)
ASC_HARD_EVENT(S_MTE3, 25, S, MTE3)
ASC_HARD_EVENT(MTE3_S, 26, MTE3, S)
ASC_HARD_EVENT(MTE2_FIX, 27, MTE2, FIX)
ASC_HARD_EVENT(FIX_MTE2, 28, FIX, MTE2)
ASC_HARD_EVENT(FIX_S, 29, FIX, S)
ASC_HARD_EVENT(M_S, 30, M, S)
ASC_HARD_EVENT(FIX_MTE3, 31, FIX, MTE3)
ASC_HARD_EVENT(MTE1_FIX, 32, MTE1, FIX)
ASC_HARD_EVENT(FIX_MTE1, 33, FIX, MTE1)
ASC_HARD_EVENT(FIX_FIX, 34, FIX, FIX)

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * asc_event: the HardEvent table, in pyasc's numbering (identical to Ascend C
 * "enum class HardEvent").  This is the only place it is written.
 *
 * Each HardEvent is a direction SRC_DST: "pipe SRC finished, tell pipe DST".
 * Entries are ASC_HARD_EVENT(NAME, value), in value order starting at 0.
 * The file has no include guard on purpose: <linux/asc_event.h> includes it
 * to build enum asc_hard_event, and libasc and the driver include it again,
 * each with its own ASC_HARD_EVENT() defined, to build name tables and to
 * check at compile time that every value is where the table says.
 */
ASC_HARD_EVENT(MTE2_MTE1, 0)
ASC_HARD_EVENT(MTE1_MTE2, 1)
ASC_HARD_EVENT(MTE1_M, 2)
ASC_HARD_EVENT(M_MTE1, 3)
ASC_HARD_EVENT(MTE2_V, 4)
ASC_HARD_EVENT(V_MTE2, 5)
ASC_HARD_EVENT(MTE3_V, 6)
ASC_HARD_EVENT(V_MTE3, 7)
ASC_HARD_EVENT(M_V, 8)
ASC_HARD_EVENT(V_M, 9)
ASC_HARD_EVENT(V_V, 10)
ASC_HARD_EVENT(MTE3_MTE1, 11)
ASC_HARD_EVENT(MTE1_MTE3, 12)
ASC_HARD_EVENT(MTE1_V, 13)
ASC_HARD_EVENT(MTE2_M, 14)
ASC_HARD_EVENT(M_MTE2, 15)
ASC_HARD_EVENT(V_MTE1, 16)
ASC_HARD_EVENT(M_FIX, 17)
ASC_HARD_EVENT(FIX_M, 18)
ASC_HARD_EVENT(MTE3_MTE2, 19)
ASC_HARD_EVENT(MTE2_MTE3, 20)
ASC_HARD_EVENT(S_V, 21)
ASC_HARD_EVENT(V_S, 22)
ASC_HARD_EVENT(S_MTE2, 23)
ASC_HARD_EVENT(MTE2_S, 24)
ASC_HARD_EVENT(S_MTE3, 25)
ASC_HARD_EVENT(MTE3_S, 26)
ASC_HARD_EVENT(MTE2_FIX, 27)
ASC_HARD_EVENT(FIX_MTE2, 28)
ASC_HARD_EVENT(FIX_S, 29)
ASC_HARD_EVENT(M_S, 30)
ASC_HARD_EVENT(FIX_MTE3, 31)
ASC_HARD_EVENT(MTE1_FIX, 32)
ASC_HARD_EVENT(FIX_MTE1, 33)
ASC_HARD_EVENT(FIX_FIX, 34)

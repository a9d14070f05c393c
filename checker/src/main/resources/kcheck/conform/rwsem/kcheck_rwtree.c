/*
 * kcheck: the tree's kernel/locking/rwsem.c as a translation unit of its own (written for kcheck,
 * no kernel code), compiled after kcheck_rwshim.h with -fsanitize-coverage=trace-pc; the driver
 * (kcheck_rwdriver.c) calls its down_* and up_* functions.
 */
#include KCHECK_RWSEM_C

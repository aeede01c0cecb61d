//go:build openblas

package linalg

// void openblas_set_num_threads(int);
// int openblas_get_num_threads(void);
import "C"

func setThreads(n int) { C.openblas_set_num_threads(C.int(n)) }

func threads() int { return int(C.openblas_get_num_threads()) }

//go:build openblas

package linalg

// void openblas_set_num_threads(int);
// int openblas_get_num_threads(void);
import "C"

// One thread per call unless the user chose (see threads.go).
func init() {
	if !userThreads() {
		C.openblas_set_num_threads(1)
	}
}

func threads() int { return int(C.openblas_get_num_threads()) }

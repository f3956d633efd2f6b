/*
 * regionbench ab: an A/B of two kernels, or of one kernel with two boot
 * argument strings, in guests (vm/vm-ab.c).
 */
#ifndef RB_VM_AB_H
#define RB_VM_AB_H

#include "vm.h"

/* An A/B of two kernels, or of one kernel with two boot argument strings. */
struct vm_ab_settings {
	struct vm_settings vm;		/* side A, and what both share */
	char		*kernel_b;	/* NULL: A's kernel */
	char		*modules_b;	/* NULL: A's (or guessed for kernel_b) */
	char		*append_b;
	char		*label_a;
	char		*label_b;
	long		 boots;		/* per side */
	char		*rules;		/* NULL: gate-rules-vm.ini */
	char		*correction;	/* gate --correction; NULL: rules' */
	char		*junit;		/* the gate's reports, NULL: none */
	char		*markdown;
};

int	 vm_ab(const struct vm_ab_settings *set, char **run_args, int nargs,
	     char **cause);
void	 vm_ab_name_kernel_reports(const char *parent,
	     const char *const labels[2], long boots);

#endif

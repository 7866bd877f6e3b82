/* SPDX-License-Identifier: BSD-3-Clause */
/* The text test vector files of one kind: the .txt files of tests/vectors/KIND. */
#ifndef PFT_TEST_VEC_FILES_H
#define PFT_TEST_VEC_FILES_H

/* Every .txt file of tests/vectors/<kind> under $PFT_SOURCE (else this
 * checkout), in name order, as a NULL-terminated array of paths; free it
 * with vec_files_free().  NULL, and a failed check, if the folder cannot be
 * read. */
char **vec_files(const char *kind);
void vec_files_free(char **paths);

/* What a line of a vector file says: the line (changed in place) without
 * its comment ('#' on), leading white space and end of line; NULL if
 * nothing is left. */
char *vec_line(char *line);

#endif

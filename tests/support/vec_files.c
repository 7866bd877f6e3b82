/* SPDX-License-Identifier: BSD-3-Clause */
#define _POSIX_C_SOURCE 200809L
#include "vec_files.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#ifndef PFT_SOURCE_DEFAULT
#define PFT_SOURCE_DEFAULT ".."
#endif

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **vec_files(const char *kind)
{
	const char *src = getenv("PFT_SOURCE");
	char dir[1024];
	char **paths = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/tests/vectors/%s", src && *src ? src : PFT_SOURCE_DEFAULT,
		 kind);
	dp = opendir(dir);
	check_count++;
	if (!dp) {
		check_fail(dir, 0, "cannot read the vectors folder");
		return NULL;
	}
	while ((de = readdir(dp)) != NULL) {
		size_t l = strlen(de->d_name);
		char *p;

		if (l <= 4 || strcmp(de->d_name + l - 4, ".txt"))
			continue;
		if (n + 2 > cap) {
			char **np = realloc(paths, (cap = cap ? 2 * cap : 16) * sizeof(*paths));

			if (!np)
				break;
			paths = np;
		}
		p = malloc(strlen(dir) + l + 2);
		if (!p)
			break;
		sprintf(p, "%s/%s", dir, de->d_name);
		paths[n++] = p;
	}
	closedir(dp);
	if (!paths)
		paths = calloc(1, sizeof(*paths));
	else
		qsort(paths, n, sizeof(*paths), path_cmp);
	if (paths)
		paths[n] = NULL;
	return paths;
}

void vec_files_free(char **paths)
{
	size_t i;

	for (i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
}

char *vec_line(char *line)
{
	char *c = strchr(line, '#'), *s = line;

	if (c)
		*c = '\0';
	while (isspace((unsigned char)*s))
		s++;
	s[strcspn(s, "\r\n")] = '\0';
	return *s ? s : NULL;
}

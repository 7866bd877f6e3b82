/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft umbrella header: every public layer.
 *
 *     #include <pft/pft.h>       (or only the layers used: pft/flow.h ...)
 *     cc prog.c $(pkg-config --cflags --libs libpft) */
#ifndef PFT_PFT_H
#define PFT_PFT_H
#include "pft/common.h"
#include "pft/frame.h"
#include "pft/packet.h"
#include "pft/isa.h"
#include "pft/image.h"
#include "pft/flow.h"
#include "pft/etm3.h"
#include "pft/etm3flow.h"
#include "pft/etm3gen.h"
#include "pft/parallel.h"
#include "pft/ptm.h"
#include "pft/snapshot.h"
#include "pft/tfo.h"
#include "pft/debuginfo.h"
#include "pft/callstack.h"
#include "pft/coverage.h"
#endif

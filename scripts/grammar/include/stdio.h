/* Included by tree_sitter/alloc.h, which uses nothing from it. */
#pragma once

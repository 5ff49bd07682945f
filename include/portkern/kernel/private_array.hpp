// private_array<T, N, Group>: N values of T per item that live across the phases of a group, indexed as
// acc(item, i). Registers on CUDA; one array per item in the group's frame on the CPU.
#pragma once

namespace portkern::kernel {

template <class T, int N, class Group>
using private_array = typename Group::template private_array_type<T, N>;

}  // namespace portkern::kernel

// What the GPU direct solver families with one solver per direction share (ConvGpuDepthwise*,
// ConvGpuGrouped*): the name, id and direction each instance is made with.
#pragma once

#include "conv/solver.hpp"

#include <string>
#include <string_view>

namespace miopen::solvers {

class GpuDirectionSolver : public ConvSolver
{
public:
    GpuDirectionSolver(ConvDirection dir, uint64_t id, const char* name) : dir_(dir), id_(id), name_(name) {}
    std::string_view Name() const override { return name_; }   // stored in the find-db
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }

protected:
    /// GPU handles of the solver's direction only; else "other domain".
    Applicability GpuAndDirection(const ConvContext& ctx, const ConvProblem& p) const
    {
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        if(p.direction != dir_)
            return OtherDomain("another direction");
        return Applicable();
    }

    ConvDirection dir_;

private:
    uint64_t id_;
    std::string name_;
};

} // namespace miopen::solvers

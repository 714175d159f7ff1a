#include "conv/registry.hpp"
#include "conv/solvers.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"

#include <sstream>

namespace miopen {

const char* AlgoName(ConvAlgo algo)
{
    switch(algo)
    {
    case ConvAlgo::Gemm: return "GEMM";
    case ConvAlgo::Direct: return "Direct";
    case ConvAlgo::Fft: return "FFT";
    case ConvAlgo::Winograd: return "Winograd";
    case ConvAlgo::ImplicitGemm: return "ImplicitGEMM";
    }
    return "unknown";
}

const char* AlgoToggle(ConvAlgo algo)
{
    switch(algo)
    {
    case ConvAlgo::Gemm: return "MIOPEN_DEBUG_CONV_GEMM";
    case ConvAlgo::Direct: return "MIOPEN_DEBUG_CONV_DIRECT";
    case ConvAlgo::Fft: return "MIOPEN_DEBUG_CONV_FFT";
    case ConvAlgo::Winograd: return "MIOPEN_DEBUG_CONV_WINOGRAD";
    case ConvAlgo::ImplicitGemm: return "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM";
    }
    return "";
}

const std::vector<const ConvSolver*>& ConvSolvers()
{
    // Priority order: where estimates tie, earlier solvers are preferred. Ids are stable.
    static const std::vector<const ConvSolver*> all = {
        &solvers::ConvCpuDirectBlockedFwd(),
        &solvers::ConvCpuDirectBlockedBwd(),
        &solvers::ConvCpuDirectBlockedWrw(),
        &solvers::ConvCpuImplicitGemmFwd(),
        &solvers::ConvCpuImplicitGemmBwd(),
        &solvers::ConvCpuImplicitGemmWrw(),
        &solvers::ConvMPBidirectWinograd<4, 3>(),
        &solvers::ConvMPBidirectWinograd<2, 3>(),
        &solvers::ConvCpuWinogradWrw<4, 3>(),
        &solvers::ConvCpuWinogradWrw<2, 3>(),
        &solvers::Fft(),
        &solvers::GemmFwd1x1_0_1(),
        &solvers::GemmFwd1x1_0_2(),
        &solvers::ConvGpuGemmFwd1x1Split(),
        &solvers::GemmFwdRest(),
        &solvers::GemmBwd1x1_stride1(),
        &solvers::GemmBwd1x1_stride2(),
        &solvers::GemmBwdRest(),
        &solvers::GemmWrw1x1_stride1(),
        &solvers::GemmWrwUniversal(),
        &solvers::ConvGpuDepthwiseFwd(),
        &solvers::ConvGpuDepthwiseBwd(),
        &solvers::ConvGpuDepthwiseWrw(),
        &solvers::ConvGpuGroupedFwd(),
        &solvers::ConvGpuGroupedBwd(),
        &solvers::ConvGpuGroupedWrw(),
        &solvers::ConvGpuImplicitGemmFwd(0),
        &solvers::ConvGpuImplicitGemmFwd(1),
        &solvers::ConvGpuImplicitGemmFwd(2),
        &solvers::ConvGpuImplicitGemmFwd(3),
        &solvers::ConvGpuImplicitGemmFwd(4),
        &solvers::ConvGpuImplicitGemmFwd(5),
        &solvers::ConvGpuImplicitGemmBwd(0),
        &solvers::ConvGpuImplicitGemmBwd(1),
        &solvers::ConvGpuImplicitGemmBwd(2),
        &solvers::ConvGpuImplicitGemmBwd(3),
        &solvers::ConvGpuImplicitGemmBwd(4),
        &solvers::ConvGpuImplicitGemmBwd(5),
        &solvers::ConvGpuDirectBwdSmallC(),
        &solvers::ConvGpuImplicitGemmWrw(0),
        &solvers::ConvGpuImplicitGemmWrw(1),
        &solvers::ConvGpuImplicitGemmWrw(2),
        &solvers::ConvGpuImplicitGemmWrw(3),
        &solvers::ConvGpuImplicitGemmWrw(4),
        &solvers::ConvGpuImplicitGemmWrw(5),
        &solvers::ConvAsm3x3U(),
        &solvers::ConvAsm1x1U(),
        &solvers::ConvDirectNaiveFwd(),
        &solvers::ConvDirectNaiveBwdData(),
        &solvers::ConvDirectNaiveBwdWeights(),
    };
    // Ids and names key the find-db, the perf-db and every by-id call: two solvers sharing one
    // (a merge of two branches that picked the same free id) would silently shadow each other.
    static const bool unique = [] {
        for(size_t i = 0; i < all.size(); ++i)
            for(size_t j = 0; j < i; ++j)
                if(all[i]->Id() == all[j]->Id() || all[i]->Name() == all[j]->Name())
                    Throw(miopenStatusInternalError, "solvers ", all[j]->Name(), " and ",
                          all[i]->Name(), " share an id or a name (", all[i]->Id(), ")");
        return true;
    }();
    (void)unique;
    return all;
}

const ConvSolver* FindSolverById(uint64_t id)
{
    for(const ConvSolver* s : ConvSolvers())
        if(s->Id() == id)
            return s;
    return nullptr;
}

const ConvSolver* FindSolverByName(std::string_view name)
{
    for(const ConvSolver* s : ConvSolvers())
        if(s->Name() == name)
            return s;
    return nullptr;
}

std::optional<std::string> DisabledBy(const ConvSolver& solver)
{
    const char* toggle = AlgoToggle(solver.Algorithm());
    if(!env::IsEnabled(toggle))
        return std::string(toggle) + "=" + *env::Value(toggle);
    if(const auto only = env::Value("MIOPEN_DEBUG_FIND_ONLY_SOLVER"))
    {
        std::istringstream list(*only);
        std::string item;
        bool known = false;
        bool listed = false;
        while(std::getline(list, item, ';'))
        {
            if(item.empty())
                continue;
            const bool numeric = item.find_first_not_of("0123456789") == std::string::npos;
            const ConvSolver* named = numeric ? FindSolverById(std::stoull(item)) : FindSolverByName(item);
            if(named == nullptr)
                ThrowBadParm("MIOPEN_DEBUG_FIND_ONLY_SOLVER='", *only, "': '", item,
                             "' is not a solver name or id");
            known = true;
            listed = listed || named == &solver;
        }
        if(known && !listed)
            return "MIOPEN_DEBUG_FIND_ONLY_SOLVER=" + *only;
    }
    return std::nullopt;
}

SolverStatus SurveySolver(const ConvContext& ctx, const ConvProblem& p, const ConvSolver& solver,
                          size_t workspace_limit)
{
    const ConvSolver* s = &solver;
    SolverStatus st{s, false, false, "", 0};
    const Applicability a = s->IsApplicable(ctx, p);
    if(!a.ok)
    {
        st.why_not      = "not applicable: " + a.reason;
        st.other_domain = a.other_domain;
    }
    else if(const auto toggle = DisabledBy(*s))
        st.why_not = "disabled by " + *toggle;
    else if(p.deterministic && !s->IsDeterministic())
        st.why_not = "not deterministic (MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC is set)";
    else
    {
        st.workspace = s->WorkspaceSize(ctx, p);
        if(st.workspace > workspace_limit)
            st.why_not = Concat("needs ", st.workspace, " bytes of workspace; ", workspace_limit,
                                " given");
        else
            st.usable = true;
    }
    return st;
}

std::vector<SolverStatus> SurveySolvers(const ConvContext& ctx, const ConvProblem& p,
                                        size_t workspace_limit)
{
    std::vector<SolverStatus> out;
    for(const ConvSolver* s : ConvSolvers())
        out.push_back(SurveySolver(ctx, p, *s, workspace_limit));
    return out;
}

std::string ExplainNoSolver(const ConvProblem& p, const std::vector<SolverStatus>& survey)
{
    std::ostringstream o;
    o << "no solver can run problem " << p.Key() << ":";
    bool first = true;
    for(const auto& st : survey)
    {
        if(st.other_domain)   // solvers for other directions or devices are noise here
            continue;
        o << (first ? " " : "; ") << st.solver->Name() << " " << st.why_not;
        first = false;
    }
    return o.str();
}

} // namespace miopen

// Device classes chosen at run time (portkern/runtime/device_class.hpp): the table covers every deployment in
// deploy/, each class's predicate picks the right class from device properties, forcing a class works for the
// classes the CPU can execute and is an Error naming the value otherwise, and every CPU class the machine can
// execute runs the GEMM test bed through the public API (so an AVX-512 machine tests the AVX2 and generic
// classes too).
#include <filesystem>
#include <set>

#include "conv2d/deployment.hpp"
#include "conv2d/registry.hpp"
#include "conv2d_cases.hpp"
#include "gemm/tiled/ladder.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "gemm_cases.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::testing {

struct ClassChoice {
  std::string device_class;
  GemmChoice choice;
};
inline void PrintTo(const ClassChoice& c, std::ostream* os) { *os << c.device_class << " " << c.choice.config; }

namespace {

// The class the table's order and predicates give to `p` on `backend`.
std::string_view class_for(const DeviceProperties& p, Backend backend) {
  for (const DeviceClass& c : device_classes())
    if (c.backend == backend && c.runs_on(p)) return c.name;
  return "";
}

// Forces a CPU class for one scope and returns to the choice by properties after it.
struct ForcedCpuClass {
  explicit ForcedCpuClass(std::string_view name) { force_device_class(Backend::cpu, name); }
  ~ForcedCpuClass() { force_device_class(Backend::cpu, ""); }
};

TEST(DeviceClass, TableCoversEveryDeploymentFolder) {
  std::set<std::string> folders, classes;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PORTKERN_SOURCE_DIR) + "/deploy"))
    if (entry.is_directory()) folders.insert(entry.path().filename().string());
  for (const DeviceClass& c : device_classes()) {
    classes.insert(std::string(c.name));
    EXPECT_EQ(gemm_deployment_of_class(std::string(c.name)).device_class, c.name);
    EXPECT_EQ(conv2d_impl::Conv2dDeployments::with(c.name, []<class D>() { return std::string(D::device_class); }),
              c.name);
  }
  EXPECT_EQ(folders, classes);
  EXPECT_PORTKERN_ERROR(gemm_deployment_of_class("cpu-sse9"), "device class 'cpu-sse9' has no deployment");
}

// Every configuration a conv2d deployment can pick, for every precision, is one this build instantiates for the
// class's back end (the registry's), so the generated lists and the algorithms' own lists cannot drift apart;
// and its fallback too. A precision's own deployment picks only what the precision allows (another precision's
// pick that it does not allow falls back: Conv2dCpu precision tests).
TEST(DeviceClass, EveryDeployedConv2dConfigurationIsInstantiated) {
  for (const DeviceClass& c : device_classes()) {
    auto instantiated = [&](std::string_view config) {
      const auto* entry = conv2d_impl::find_conv2d_algorithm(config.substr(0, config.find('/')));
      if (!entry) return false;
      const auto& built = entry->instantiated(c.backend);
      return std::find(built.begin(), built.end(), config) != built.end();
    };
    auto allowed = [](std::string_view config, Precision p) {
      const auto* entry = conv2d_impl::find_conv2d_algorithm(config.substr(0, config.find('/')));
      return !entry || !entry->arithmetic || allows(p, entry->arithmetic(config));
    };
    for (Precision p : precisions) {
      const std::vector<std::string> missing = conv2d_impl::Conv2dDeployments::with(c.name, p, [&]<class D>() {
        std::vector<std::string> out;
        const bool own = detail::precision_of<D>() == p;
        for (std::string_view family : D::families)
          for (std::string_view config : D::configs_of(family))
            if (!instantiated(config) || !config.starts_with(std::string(family) + "/") || (own && !allowed(config, p)))
              out.emplace_back(config);
        if (!instantiated(D::fallback) || !allowed(D::fallback, p)) out.emplace_back(D::fallback);
        return out;
      });
      EXPECT_TRUE(missing.empty()) << c.name << " at " << name(p) << " deploys " << ::testing::PrintToString(missing);
    }
  }
}

// The CUDA deployments (generated or hand-written) send first layers to `windowed` at every precision: checked here
// on their picks alone, on any machine, so that a regenerated deployment that loses what the tuning learned fails
// CI, not only a GPU run (which checks the whole selection: Conv2dCudaApi.DeploymentsRunStemsAsWindowed).
TEST(DeviceClass, CudaDeploymentsSendFirstLayersToWindowed) {
  for (const DeviceClass& c : device_classes()) {
    if (c.backend != Backend::cuda) continue;
    for (Precision p : precisions)
      for (const Conv2dDesc& stem : first_layer_descs()) {
        const Conv2dDesc d = conv2d_complete(stem);
        const deploy::ConvProblem problem = conv2d_impl::conv_problem(d);
        const std::string family = conv2d_impl::Conv2dDeployments::with(
            c.name, p, [&]<class D>() { return std::string(D::families[D::select_family(problem)]); });
        EXPECT_EQ(family, "windowed") << c.name << " at " << name(p) << ": " << describe(d);
      }
  }
}

TEST(DeviceClass, PredicatesChooseFromProperties) {
  DeviceProperties p;
  p.features = "sse4.2 avx avx2 fma avx512f avx512vl avx512dq avx512bw";
  EXPECT_EQ(class_for(p, Backend::cpu), "cpu-avx512");
  p.features = "sse4.2 avx avx2 fma avx512f";   // AVX-512 F alone (Knights Landing): not enough for its kernels
  EXPECT_EQ(class_for(p, Backend::cpu), "cpu-avx2");
  p.features = "sse4.2 avx avx2";               // AVX2 without FMA
  EXPECT_EQ(class_for(p, Backend::cpu), "cpu-generic");
  p.features = "";
  EXPECT_EQ(class_for(p, Backend::cpu), "cpu-generic");
  p.arch = "sm_90";
  EXPECT_EQ(class_for(p, Backend::cuda), "cuda-sm90");
  for (const char* unknown : {"sm_80", "sm_89", "sm_100", "sm_120"}) {   // never refused
    p.arch = unknown;
    EXPECT_EQ(class_for(p, Backend::cuda), "cuda-generic") << unknown;
  }
}

TEST(DeviceClass, ThisCpuGetsTheFirstClassItCanExecute) {
  if (std::getenv("PORTKERN_CPU_CLASS")) GTEST_SKIP() << "PORTKERN_CPU_CLASS forces the class";
  const DeviceClass& chosen = device_class(Device::cpu());
  EXPECT_EQ(chosen.name, class_for(Device::cpu().properties(), Backend::cpu));
  EXPECT_EQ(gemm_device_class(Device::cpu()), chosen.name);
  EXPECT_EQ(select_gemm(Device::cpu(), {64, 64, 64}).device_class, chosen.name);
  EXPECT_EQ(active_cpu_isa(), chosen.cpu_isa);
}

TEST(DeviceClass, ForcingNamesTheBadValue) {
  EXPECT_PORTKERN_ERROR(force_device_class(Backend::cpu, "cpu-avx9"),
                        "argument device_class = cpu-avx9 must be a CPU device class (one of cpu-avx512, cpu-avx2, cpu-generic)");
  EXPECT_PORTKERN_ERROR(force_device_class(Backend::cpu, "cuda-sm90"), "argument device_class = cuda-sm90");
  EXPECT_PORTKERN_ERROR(force_device_class(Backend::cuda, "cpu-avx2"), "a CUDA device class (one of cuda-sm90, cuda-generic)");
  EXPECT_PORTKERN_ERROR(find_device_class("nosuch"), "argument name = nosuch");
  for (const DeviceClass& c : device_classes())
    if (c.backend == Backend::cpu && !c.runs_on(Device::cpu().properties()))
      EXPECT_PORTKERN_ERROR(force_device_class(Backend::cpu, c.name), "this CPU cannot execute it");
}

TEST(DeviceClass, ForcingAClassSwitchesDeploymentAndMicroKernels) {
  for (const DeviceClass& c : device_classes()) {
    if (c.backend != Backend::cpu || !c.runs_on(Device::cpu().properties())) continue;
    ForcedCpuClass forced(c.name);
    EXPECT_EQ(gemm_device_class(Device::cpu()), c.name);
    EXPECT_EQ(select_gemm(Device::cpu(), {100, 100, 100}).device_class, c.name);
    EXPECT_EQ(active_cpu_isa(), c.cpu_isa);
  }
}

// ---- every CPU class this machine executes, through the public API ---------------------------------------

std::vector<ClassChoice> executable_class_choices() {
  std::vector<ClassChoice> all;
  for (const DeviceClass& c : device_classes()) {
    if (c.backend != Backend::cpu || !c.runs_on(Device::cpu().properties())) continue;
    const GemmDeployment d = gemm_deployment_of_class(std::string(c.name));
    for (std::size_t f = 0; f < d.families.size(); ++f)
      for (const auto& config : d.configs[f]) all.push_back({std::string(c.name), {d.families[f], config}});
    // The kernel model's fragments lowered to this class's micro-kernels (the ladder's staged step).
    for (const auto& step : gemm_impl::ladder_steps)
      if (gemm_impl::parse_tiled(step.cpu_config).memory == gemm_impl::TiledMemory::staged &&
          std::none_of(all.begin(), all.end(), [&](const ClassChoice& x) {
            return x.device_class == c.name && x.choice.config == step.cpu_config;
          }))
        all.push_back({std::string(c.name), {"tiled", std::string(step.cpu_config)}});
  }
  return all;
}

struct ClassChoiceName {
  std::string operator()(const ::testing::TestParamInfo<ClassChoice>& info) const {
    std::string name = info.param.device_class + "__" + info.param.choice.config;
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
  }
};

// Beyond the shared bed: several KC and MC blocks (k past 2 KC, m past MC), the k split over threads, and
// sizes that are no multiple of any MR, NR or KC.
std::vector<GemmCase> blocking_cases() {
  return {{false, false, 67, 13, 1031, 1.0, 0.0},  {true, false, 67, 13, 1031, -0.5, 1.5},
          {false, true, 301, 29, 613, 1.0, 0.0, 2}, {true, true, 301, 29, 613, 0.7, -1.0},
          {false, false, 8, 7, 5003, 1.0, 0.0},    {false, false, 1, 257, 1031, 1.0, 0.5},
          {true, false, 263, 1, 1031, 2.0, 0.0}};
}

class GemmEachCpuClass : public ::testing::TestWithParam<ClassChoice> {};

TEST_P(GemmEachCpuClass, FloatMatchesReference) {
  ForcedCpuClass forced(GetParam().device_class);
  for (const auto& c : gemm_cases()) check_gemm<float>(Device::cpu(), c, GetParam().choice);
  for (const auto& c : blocking_cases()) check_gemm<float>(Device::cpu(), c, GetParam().choice);
}
TEST_P(GemmEachCpuClass, DoubleMatchesReference) {
  ForcedCpuClass forced(GetParam().device_class);
  for (const auto& c : gemm_cases()) check_gemm<double>(Device::cpu(), c, GetParam().choice);
  for (const auto& c : blocking_cases()) check_gemm<double>(Device::cpu(), c, GetParam().choice);
}

INSTANTIATE_TEST_SUITE_P(Executable, GemmEachCpuClass, ::testing::ValuesIn(executable_class_choices()),
                         ClassChoiceName());

}  // namespace
}  // namespace portkern::testing

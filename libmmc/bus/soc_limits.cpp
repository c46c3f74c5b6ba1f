// The table of SoC-level host limits. One row per controller compatible;
// the first compatible of a node that has a row wins (most specific first,
// as the node lists them). Sources are the SoC's .dtsi in mainline Linux,
// where the SoC's own max-frequency lives (a board .dts that includes it can
// only lower or repeat it), the controller's binding, or a public report
// that showed the controller running faster than a board's setting (then
// clock_is_limit is false: the figure is a floor of what it can do).
#include "bus/soc_limits.h"

#include <array>

namespace mmc::bus {

namespace {

// Verified against mainline Linux (torvalds/linux, 2025-2026 trees); the
// .dtsi renames (rk3399-base, rk356x-base, rk3588-base) came in 2024, so
// older kernels name the file in parentheses. dw_mmc has no HS400: its best
// modes are SDR104 (SD, 4 bits) and HS200 (eMMC, 8 bits).
constexpr std::array<SocLimit, 13> table{{
    {"rockchip,rk3288-dw-mshc", "", "RK3288 SD/SDIO/eMMC (dw_mmc)", 150e6, true, "SDR104 HS200", 8,
     "arch/arm/boot/dts/rockchip/rk3288.dtsi: max-frequency = <150000000> on sdmmc, sdio0/1, emmc"},
    {"rockchip,rk3308-dw-mshc", "", "RK3308 SD/SDIO/eMMC (dw_mmc)", 150e6, true, "SDR104 HS200", 8,
     "arch/arm64/boot/dts/rockchip/rk3308.dtsi: max-frequency = <150000000> on sdmmc, emmc, sdio"},
    {"rockchip,rk3328-dw-mshc", "", "RK3328 SD/SDIO/eMMC (dw_mmc)", 150e6, true, "SDR104 HS200", 8,
     "arch/arm64/boot/dts/rockchip/rk3328.dtsi: max-frequency = <150000000> on sdmmc, sdio, emmc"},
    {"rockchip,rk3368-dw-mshc", "", "RK3368 SD/SDIO/eMMC (dw_mmc)", 150e6, true, "SDR104 HS200", 8,
     "arch/arm64/boot/dts/rockchip/rk3368.dtsi: max-frequency = <150000000> on sdmmc, sdio0, emmc"},
    {"rockchip,rk3399-dw-mshc", "", "RK3399 SD/SDIO (dw_mmc)", 150e6, true, "SDR104", 4,
     "arch/arm64/boot/dts/rockchip/rk3399-base.dtsi (rk3399.dtsi in older kernels): max-frequency = <150000000> on "
     "sdio0, sdmmc"},
    {"rockchip,rk3399-sdhci-5.1", "", "RK3399 eMMC (Arasan SDHCI 5.1)", 200e6, true, "HS400ES", 8,
     "arch/arm64/boot/dts/rockchip/rk3399-base.dtsi: assigned-clock-rates = <200000000> on the sdhci node's SCLK_EMMC "
     "(it has no max-frequency); drivers/mmc/host/sdhci-of-arasan.c gives arasan,sdhci-5.1 HS400 enhanced strobe"},
    // The RK3528's SD slot is set lower than the same controller's SDIO
    // nodes: the slot's own row first, by its unit address.
    {"rockchip,rk3528-dw-mshc", "ffc30000", "RK3528 SD slot (dw_mmc)", 150e6, true, "SDR104", 4,
     "arch/arm64/boot/dts/rockchip/rk3528.dtsi: max-frequency = <150000000> on sdmmc (mmc@ffc30000)"},
    {"rockchip,rk3528-dw-mshc", "", "RK3528 SD/SDIO (dw_mmc)", 200e6, true, "SDR104", 4,
     "arch/arm64/boot/dts/rockchip/rk3528.dtsi: max-frequency = <200000000> on sdio0, sdio1 (<150000000> on sdmmc)"},
    {"rockchip,rk3568-dw-mshc", "", "RK3566/RK3568 SD/SDIO (dw_mmc)", 150e6, true, "SDR104", 4,
     "arch/arm64/boot/dts/rockchip/rk356x-base.dtsi (rk356x.dtsi in older kernels): max-frequency = <150000000> on "
     "sdmmc0/1/2"},
    {"rockchip,rk3588-dw-mshc", "", "RK3588 SD/SDIO (dw_mmc)", 200e6, true, "SDR104", 4,
     "arch/arm64/boot/dts/rockchip/rk3588-base.dtsi (rk3588s.dtsi in older kernels): max-frequency = <200000000> on "
     "sdmmc, sdio"},
    {"rockchip,rk3588-dwcmshc", "", "RK3588 eMMC (DWC MSHC)", 200e6, true, "HS400ES", 8,
     "arch/arm64/boot/dts/rockchip/rk3588-base.dtsi: max-frequency = <200000000> on sdhci, with the emmc_bus8 and "
     "emmc_data_strobe pins"},
    {"qcom,sdhci-msm-v5", "", "Qualcomm SDHCI (sdhci-msm v5)", 202e6, false, "SDR104", 4,
     "a report, not a limit: the AYN Odin 2 (SM8550) microSD ran SDR104 at 202 MHz without errors once its board DT's "
     "37.5 MHz clamp was removed (ROCKNIX/distribution#2933); the qcom,sdhci-msm.yaml binding example has a 202 MHz OPP"},
    // Not in mainline: vendor kernels (openEuler, deepin) carry the driver.
    {"phytium,mci", "", "Phytium E2000 SD/MMC (phytium,mci, vendor driver)", 100e6, false, "SDR104", 4,
     "a report, not a limit: the E2000Q demo board ran SDR104 at 100 MHz after its max-frequency was raised "
     "from 50 MHz, doubling reads (the Phytium entry of tests/data/ios.json)"},
}};

bool unit_address_matches(const SocLimit& row, const DeviceTree& dt)
{
    if (row.unit_address.empty()) return true;
    const auto at = dt.node.rfind('@');
    return at != std::string::npos && std::string_view(dt.node).substr(at + 1) == row.unit_address;
}

} // namespace

const SocLimit* soc_limit(const DeviceTree& dt)
{
    for (const auto& c : dt.compatible)
        for (const auto& row : table)
            if (row.compatible == c && unit_address_matches(row, dt)) return &row;
    return nullptr;
}

} // namespace mmc::bus

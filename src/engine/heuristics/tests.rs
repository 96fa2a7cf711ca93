use super::*;

#[test]
fn registry_config_and_names_agree() {
    let config = serde_json::to_value(HeuristicsConfig::default()).unwrap();
    let keys: Vec<&String> = config.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), COUNT);
    for (index, info) in REGISTRY.iter().enumerate() {
        assert_eq!(info.id as usize, index, "registry order");
        assert_eq!(Id::from_name(info.name), Some(info.id));
        assert!(
            config.get(info.name).is_some(),
            "{} has a config field",
            info.name
        );
        let docs = HeuristicsConfig::param_docs(info.id);
        assert_eq!(docs[0].0, "enabled", "{}: `enabled` comes first", info.name);
        let params = HeuristicsConfig::default().params_json(info.id);
        assert_eq!(
            params.as_object().unwrap().len(),
            docs.len(),
            "{}: docs cover params",
            info.name
        );
        assert!(
            !HeuristicsConfig::default().enabled(info.id),
            "{} is off by default",
            info.name
        );
    }
}

#[test]
fn set_param_parses_by_type_and_rejects_unknowns() {
    let mut h = HeuristicsConfig::default();
    h.set_param(Id::Gsr, "red2", "3").unwrap();
    assert_eq!(h.gsr.red2, 3);
    h.set_param(Id::Futility, "frontier", "off").unwrap();
    assert!(!h.futility.frontier);
    h.set_param(Id::Quiescence, "eval", "full").unwrap();
    h.set_param(Id::FutilityMoveCount, "counts", "[1,2,3,4,5,6,7,8,9]")
        .unwrap();
    assert_eq!(h.futility_move_count.counts[8], 9);
    h.set_param(Id::EmaChannel, "cci_multiplier", "1.5")
        .unwrap();
    let err = h.set_param(Id::Gsr, "nope", "1").unwrap_err();
    assert!(err.contains("red1") && err.contains("cross_range"), "{err}");
    assert!(h.set_param(Id::Gsr, "red2", "two").is_err());
    assert!(h.set_param(Id::Quiescence, "eval", "psychic").is_err());
    assert!(
        h.set_param(Id::FutilityMoveCount, "counts", "[1,2]")
            .is_err()
    );
}

#[test]
fn every_number_parameter_declares_its_range_and_its_default_is_inside() {
    let defaults = HeuristicsConfig::default();
    for info in REGISTRY {
        let params = defaults.params_json(info.id);
        let ranges = HeuristicsConfig::param_ranges(info.id);
        for (name, value) in params.as_object().unwrap() {
            if value.is_number() {
                assert!(
                    ranges.iter().any(|(param, _, _)| param == name),
                    "{}.{name} has no range",
                    info.name
                );
            }
        }
        assert_eq!(defaults.out_of_range(info.id), None, "{}", info.name);
    }
}

#[test]
fn every_mirror_names_a_form_and_a_counter() {
    use crate::engine::stats::{Counter, STAND_PAT};
    for info in REGISTRY {
        for (audited, mirror) in info.mirrors {
            let form_known = if info.forms.is_empty() {
                *audited == "*"
            } else {
                info.forms.contains(audited)
            };
            assert!(form_known, "{}: no form '{audited}'", info.name);
            assert!(
                *mirror == STAND_PAT || Counter::from_key(mirror).is_some(),
                "{}: mirror '{mirror}' is no counter",
                info.name
            );
        }
    }
}

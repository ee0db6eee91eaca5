//! The load balancer: round robin over replicas A and B, no sticky
//! sessions. A duplicated delivery goes to the other replica as well, and
//! does not move the rotation.

use super::facts::ReplicaId;

#[derive(Clone, Debug, Default)]
pub struct Balancer {
    routed: u64,
}

impl Balancer {
    /// The replica for the next call.
    pub fn route(&mut self) -> ReplicaId {
        let replica = ReplicaId::ALL[(self.routed % 2) as usize];
        self.routed += 1;
        replica
    }

    pub fn reset(&mut self) {
        self.routed = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternates_starting_with_a() {
        let mut lb = Balancer::default();
        let order: Vec<_> = (0..4).map(|_| lb.route()).collect();
        assert_eq!(order, [ReplicaId::A, ReplicaId::B, ReplicaId::A, ReplicaId::B]);
    }
}
